import { useState } from 'react';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { bridgesOf, itemsAfterClick, joinAsBridges, separateBridges } from '../../lib/teeth';
import { toothRuns } from '@portal/contracts';
import { ToothChart, ToothChartLegend } from '../ToothChart';
import { ToothItemsEditor } from '../ToothItemsEditor';
import type { SendToLab } from './useSendToLab';

/**
 * The teeth of the prescription: the chart (click, Shift-click or the span switch for a run of teeth), joining runs
 * into bridges, and the per-tooth editor.
 */
export function TeethPicker({ send }: { send: SendToLab }) {
  const { t } = useTranslation('orders');
  const { t: tt } = useTranslation('teeth');
  const { items, setItems, system, required } = send;
  const [spanMode, setSpanMode] = useState(false);
  const canJoin = toothRuns(items.map((i) => i.number)).some((r) => r.length > 1);
  const hasBridge = bridgesOf(items).length > 0;

  return (
    <>
      <ToothChart
        items={items}
        system={system}
        spanMode={spanMode}
        onSelect={(fdi, span, anchor) => setItems(itemsAfterClick(items, fdi, anchor, span))}
      />
      <ToothChartLegend />
      <Flex gap={8} wrap justify="center" style={{ margin: '8px 0' }}>
        <Button
          size="small"
          aria-pressed={spanMode}
          type={spanMode ? 'primary' : 'default'}
          data-testid="teeth-span-mode"
          onClick={() => setSpanMode(!spanMode)}
        >
          {tt('spanMode')}
        </Button>
        <Button
          size="small"
          disabled={!canJoin}
          data-testid="teeth-bridge"
          onClick={() => setItems(joinAsBridges(items))}
        >
          {tt('joinBridge')}
        </Button>
        {hasBridge ? (
          <Button size="small" data-testid="teeth-separate" onClick={() => setItems(separateBridges(items))}>
            {tt('separate')}
          </Button>
        ) : null}
        {items.length ? (
          <Button size="small" type="link" data-testid="send-teeth-clear" onClick={() => setItems([])}>
            {t('send.clearTeeth')}
          </Button>
        ) : null}
      </Flex>
      {items.length ? (
        <ToothItemsEditor
          items={items}
          system={system}
          required={required}
          showErrors={send.tried}
          onChange={setItems}
          materialOptions={send.product?.materials}
        />
      ) : (
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {tt('hint')}
        </Typography.Paragraph>
      )}
    </>
  );
}
