/**
 * Turns an upload's progress events (a fraction, 0..1) into whole percents, reported only when the percent
 * changes: every report rebuilds the message rows, and a large file sends hundreds of events.
 */
export function wholePercents(report: (fraction: number) => void): (fraction: number) => void {
  let shown = 0;
  return (fraction) => {
    const percent = Math.floor(fraction * 100);
    if (percent === shown) return;
    shown = percent;
    report(percent / 100);
  };
}
