// The page's charts are built one a task, in the order they mount: building one takes a slow phone
// a few hundred milliseconds, so the first (the donut) shows, and a tap is answered, before the
// others are built, instead of all of them in one long task.
let last: Promise<void> = Promise.resolve();

/** Resolves in a task of its own, after the turns asked for before it. */
export function nextTurn(): Promise<void> {
  const turn = last.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  last = turn;
  return turn;
}
