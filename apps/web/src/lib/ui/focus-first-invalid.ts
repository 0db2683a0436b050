/** After a refused submit, moves keyboard focus to the first field marked invalid (once React has rendered it). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
