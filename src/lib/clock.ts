/** The time source of services and tasks; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const d = new Date(at);
  return { now: () => new Date(d) };
}
