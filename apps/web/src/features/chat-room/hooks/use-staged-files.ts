import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/ui/toast';
import { imageThumbnail, type StagedFile, stageFiles } from '../lib/staged-files';

/**
 * Files waiting in the composer until the message is sent, with their thumbnails. They wait only for a new
 * message: while one is edited (`editing`) none are shown and none can be added.
 */
export function useStagedFiles(editing: boolean) {
  const [staged, setStaged] = useState<StagedFile[]>([]);

  /** Files from the button, a paste or a drop, under the attach button's rules (a refusal is a toast). */
  const add = (added: File[]) => {
    if (added.length === 0 || editing) return;
    const result = stageFiles(staged, added, imageThumbnail);
    for (const problem of result.problems) toast.error(problem);
    setStaged(result.staged);
  };
  const remove = (key: string) => {
    const gone = staged.find((s) => s.key === key);
    if (gone?.url) URL.revokeObjectURL(gone.url);
    setStaged(staged.filter((s) => s.key !== key));
  };
  /** Empties the list once its files went out, freeing their thumbnails. */
  const clear = () => {
    for (const s of staged) if (s.url) URL.revokeObjectURL(s.url);
    setStaged([]);
  };

  // Thumbnails are freed when the room closes.
  const stagedRef = useRef(staged);
  stagedRef.current = staged;
  useEffect(
    () => () => {
      for (const s of stagedRef.current) if (s.url) URL.revokeObjectURL(s.url);
    },
    [],
  );

  return { files: editing ? [] : staged, add, remove, clear };
}
