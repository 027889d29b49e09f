import type { HTMLAttributes, Key, ReactNode } from 'react';
import { theme } from 'antd';

/**
 * A short bordered list (files, attachments, failures). antd's List is deprecated in v6 and its successor is a
 * virtual list, which these few rows do not need.
 */
export function PlainList<T>({
  items,
  itemKey,
  itemProps,
  renderItem,
  ...rest
}: {
  items: readonly T[];
  itemKey: (item: T) => Key;
  itemProps?: (item: T) => HTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string>;
  renderItem: (item: T) => ReactNode;
} & Omit<HTMLAttributes<HTMLUListElement>, 'children'> &
  Record<`data-${string}`, string>) {
  const { token } = theme.useToken();
  const line = `1px solid ${token.colorBorderSecondary}`;
  return (
    <ul
      {...rest}
      style={{
        listStyle: 'none',
        margin: 0,
        padding: 0,
        border: line,
        borderRadius: token.borderRadiusLG,
        ...rest.style,
      }}
    >
      {items.map((item, i) => (
        <li
          key={itemKey(item)}
          {...itemProps?.(item)}
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 8,
            padding: '8px 16px',
            borderTop: i ? line : undefined,
          }}
        >
          {renderItem(item)}
        </li>
      ))}
    </ul>
  );
}
