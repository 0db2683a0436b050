import { type RefObject, useEffect, useRef, useState } from 'react';
import { filesOf } from '../lib/staged-files';

/**
 * Files dragged over the room (the element the composer sits in) can be dropped anywhere on it. Dropped anywhere
 * else while the room is open (or while dropping is not `enabled`: during an edit), they are ignored rather than
 * opened by the browser in place of Parley. Returns the room's rectangle while files are dragged over it.
 */
export function useFileDrop(
  composer: RefObject<HTMLElement | null>,
  enabled: boolean,
  onDrop: (files: File[]) => void,
): DOMRect | null {
  const [dropRect, setDropRect] = useState<DOMRect | null>(null);
  const onDropRef = useRef(onDrop);
  onDropRef.current = onDrop;
  const canDropRef = useRef(enabled);
  canDropRef.current = enabled;
  useEffect(() => {
    const room = composer.current?.parentElement;
    if (!room) return;
    let depth = 0;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event) || !canDropRef.current) return;
      depth++;
      setDropRect(room.getBoundingClientRect());
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer)
        event.dataTransfer.dropEffect =
          canDropRef.current && room.contains(event.target as Node) ? 'copy' : 'none';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDropRect(null);
    };
    const onDropped = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDropRect(null);
      if (!canDropRef.current || !room.contains(event.target as Node)) return;
      onDropRef.current(filesOf(event.dataTransfer));
    };
    room.addEventListener('dragenter', onEnter);
    room.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDropped);
    return () => {
      room.removeEventListener('dragenter', onEnter);
      room.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDropped);
    };
  }, []);
  return dropRect;
}
