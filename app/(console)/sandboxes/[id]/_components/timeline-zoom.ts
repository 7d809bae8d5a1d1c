// The timeline's zoom as two numbers a keyboard can change: a level (each step halves the time
// in view) and where the view sits within the whole history (0 the start, 1 the newest end).
// Pure; kept as fractions so a live timeline that grows keeps the same view of its newest part.

export const MAX_ZOOM_STEP = 6;

export interface Zoom {
  /** 0 shows everything; each step halves the time in view. */
  step: number;
  /** Where the view sits: 0 at the first event, 1 at the newest end. */
  position: number;
}

export const FULL_VIEW: Zoom = { step: 0, position: 1 };

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function zoomTo(zoom: Zoom, step: number): Zoom {
  return { ...zoom, step: clamp(Math.round(step), 0, MAX_ZOOM_STEP) };
}

export function panTo(zoom: Zoom, position: number): Zoom {
  return { ...zoom, position: clamp(position, 0, 1) };
}

/** The part of [start, end] in view. A history of no length still gets a minute to show. */
export function visibleRange(start: Date, end: Date, zoom: Zoom): [Date, Date] {
  const from = start.getTime();
  const whole = Math.max(end.getTime() - from, 60_000);
  const width = whole / 2 ** zoom.step;
  const left = from + (whole - width) * zoom.position;
  return [new Date(left), new Date(left + width)];
}
