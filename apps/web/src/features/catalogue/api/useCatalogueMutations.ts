import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { deleteProduct, saveCalendar, saveProduct } from './catalogue';
import { catalogueKeys } from './keys';
import type { LabCalendarInput, LabCalendarResult, LabProduct } from './types';

/** The products, the calendar and the delivery estimates counted from them. */
const refreshCatalogue = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: catalogueKeys.all });

/** Adds or edits a product; the catalogue refreshes. */
export function useSaveProduct(reactions?: Reactions<LabProduct, Parameters<typeof saveProduct>[0]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCatalogue(qc) }), mutationFn: saveProduct });
}

/** Deletes a product; the catalogue refreshes. */
export function useDeleteProduct(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCatalogue(qc) }), mutationFn: deleteProduct });
}

/** Saves the working calendar: it takes the answer at once, and the catalogue (estimates) refreshes. */
export function useSaveCalendar(reactions?: Reactions<LabCalendarResult, LabCalendarInput>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      success: (result) => {
        qc.setQueryData(catalogueKeys.calendar, result);
        refreshCatalogue(qc);
      },
    }),
    mutationFn: saveCalendar,
  });
}
