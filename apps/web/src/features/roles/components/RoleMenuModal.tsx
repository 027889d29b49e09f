import { useEffect, useMemo, useState } from 'react';
import { Modal, Spin, Tag, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ManagedRole, MenuNode } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { roleLabel } from '../../../lib/roles';
import { menuTreeQuery, roleMenusQuery } from '../api/roleMenus';
import { useAllotRoleMenus } from '../api/useRoleMutations';
import { halfChecked, toggle } from '../lib/menuChecks';

/** The screens (type 1) and buttons (type 2) of a role, as a tree; read-only for built-in roles. */
export function RoleMenuModal({ role, onClose }: { role: ManagedRole | null; onClose: () => void }) {
  const { t } = useTranslation('roles');
  const open = role !== null;
  const tree = useQuery({ ...menuTreeQuery(role?.orgType), enabled: open });
  const ticked = useQuery({ ...roleMenusQuery(role?.roleCode ?? ''), enabled: open });
  const [checked, setChecked] = useState<Set<string>>(new Set());
  useEffect(() => setChecked(new Set(ticked.data ?? [])), [ticked.data]);
  const readOnly = role?.builtIn ?? true;

  const save = useAllotRoleMenus({
    onSuccess: () => {
      notify.success(t('menusSaved'));
      onClose();
    },
  });

  const treeData = useMemo(() => {
    const toData = (nodes: MenuNode[]): DataNode[] =>
      nodes.map((n) => ({
        key: n.code,
        title: (
          <span data-testid={`role-menu-${n.code}`}>
            {t(`layout:${n.name}`, { defaultValue: n.code })} {n.type === 2 ? <Tag>{t('button')}</Tag> : null}
          </span>
        ),
        children: toData(n.children),
      }));
    return toData(tree.data ?? []);
  }, [tree.data, t]);

  return (
    <Modal
      open={open}
      title={t('menusTitle', { name: role ? roleLabel(t, role.name) : '' })}
      okText={t('save')}
      cancelText={t('common:cancel')}
      onOk={() => (readOnly ? onClose() : save.mutate({ roleCode: role!.roleCode, menuCodes: [...checked] }))}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'role-menus-save' }}
      onCancel={onClose}
      destroyOnHidden
    >
      {readOnly ? <p>{t('builtInReadOnly')}</p> : <p>{t('menusHint')}</p>}
      {tree.isLoading || ticked.isLoading ? (
        <Spin />
      ) : (
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          selectable={false}
          disabled={readOnly}
          treeData={treeData}
          checkedKeys={{ checked: [...checked], halfChecked: halfChecked(tree.data ?? [], checked) }}
          onCheck={(_keys, info) => setChecked(toggle(tree.data ?? [], checked, String(info.node.key), info.checked))}
          data-testid="role-menu-tree"
        />
      )}
    </Modal>
  );
}
