import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SLOT, Slots, Slotted, slotsFor } from './slotted';

// Elements inside a translated sentence land where the translation put their placeholders.

describe('sentences holding elements', () => {
  it('put one element in its place', () => {
    expect(renderToStaticMarkup(<Slotted text={`Hallo ${SLOT}!`}>{<b>Ada</b>}</Slotted>)).toBe(
      'Hallo <b>Ada</b>!',
    );
  });

  it('put several in the translation’s own order', () => {
    const values = slotsFor(['name', 'group']);
    // A language that names the group first.
    const text = `${values.group} geht an ${values.name}.`;
    expect(
      renderToStaticMarkup(<Slots text={text} nodes={[<i key="n">Ada</i>, <b key="g">Crew</b>]} />),
    ).toBe('<b>Crew</b> geht an <i>Ada</i>.');
  });
});
