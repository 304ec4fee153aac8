import { useState } from 'react';
import {
  TEMPLATE_ERRORS,
  useCreateConvertTemplateMutation,
  useDeleteConvertTemplateMutation,
  useGetConvertTemplatesQuery,
  useUpdateConvertTemplateMutation,
} from '@/api/convertTemplatesApi';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';

/**
 * The user's named templates around the convert screen's template text: which one is picked, and
 * saving the text as a new one, into the picked one, or deleting it. `canStore` says whether the
 * text may be stored at all (not empty, not too long).
 */
export function useConvertTemplates(template: string, canStore: boolean, onChange: (template: string) => void) {
  const dispatch = useAppDispatch();
  const failed = useErrorToast();
  const { data: templates = [], isError, error } = useGetConvertTemplatesQuery();
  const [selectedId, setSelectedId] = useState('');
  const [naming, setNaming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [createTemplate, createState] = useCreateConvertTemplateMutation();
  const [updateTemplate, updateState] = useUpdateConvertTemplateMutation();
  const [deleteTemplate, deleteState] = useDeleteConvertTemplateMutation();
  const selected = templates.find((candidate) => candidate.id === selectedId) ?? null;

  /** A saved template replaces the text; 'None' only lets go of the saved one and keeps the text. */
  function pick(id: string) {
    setSelectedId(id);
    const chosen = templates.find((candidate) => candidate.id === id);
    if (chosen) onChange(chosen.body);
  }

  async function saveNew(name: string) {
    const trimmed = name.trim();
    if (!trimmed || !canStore) return;
    try {
      const created = await createTemplate({ name: trimmed, body: template }).unwrap();
      setSelectedId(created.id);
      setNaming(false);
      dispatch(showToast({ title: 'Template saved', description: created.name, variant: 'success' }));
    } catch (failure) {
      failed(failure, TEMPLATE_ERRORS.save);
    }
  }

  async function saveChanges() {
    if (!selected || !canStore) return;
    try {
      await updateTemplate({ id: selected.id, name: selected.name, body: template }).unwrap();
      dispatch(showToast({ title: 'Template updated', description: selected.name, variant: 'success' }));
    } catch (failure) {
      failed(failure, TEMPLATE_ERRORS.save);
    }
  }

  async function remove() {
    if (!selected) return;
    try {
      await deleteTemplate(selected.id).unwrap();
      setConfirmingDelete(false);
      setSelectedId('');
      dispatch(showToast({ title: 'Template deleted', description: selected.name, variant: 'success' }));
    } catch (failure) {
      setConfirmingDelete(false);
      failed(failure, TEMPLATE_ERRORS.delete);
    }
  }

  return {
    templates,
    loadError: isError ? errorMessage(error, TEMPLATE_ERRORS.fetch) : null,
    selectedId,
    selected,
    pick,
    busy: createState.isLoading || updateState.isLoading || deleteState.isLoading,
    creating: createState.isLoading,
    deleting: deleteState.isLoading,
    naming,
    setNaming,
    confirmingDelete,
    setConfirmingDelete,
    saveNew,
    saveChanges,
    remove,
  };
}
