import { create } from 'zustand';

// The answers of commands meant for this person alone ('me'), kept in memory only, per chat (and thread), so
// they stay while the room is drawn anew (another width, another chat and back) until dismissed or the tab
// closes. Never stored anywhere else.

export interface EphemeralNote {
  id: number;
  command: string;
  text: string;
}

/** The most answers a room keeps at once; older ones go first. */
const KEPT = 5;

interface NotesState {
  byPlace: Record<string, EphemeralNote[]>;
  add: (place: string, note: Omit<EphemeralNote, 'id'>) => void;
  dismiss: (place: string, id: number) => void;
}

let lastId = 0;
const NONE: EphemeralNote[] = [];

export const useEphemeralNotes = create<NotesState>()((set) => ({
  byPlace: {},
  add: (place, note) =>
    set((s) => ({
      byPlace: {
        ...s.byPlace,
        [place]: [...(s.byPlace[place] ?? []).slice(1 - KEPT), { ...note, id: ++lastId }],
      },
    })),
  dismiss: (place, id) =>
    set((s) => ({ byPlace: { ...s.byPlace, [place]: (s.byPlace[place] ?? []).filter((n) => n.id !== id) } })),
}));

/** A place's notes (the same empty list for none, so a room without any never redraws for them). */
export const notesOf = (state: NotesState, place: string): EphemeralNote[] => state.byPlace[place] ?? NONE;
