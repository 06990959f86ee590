let seq = 0;

/** A value unique within the test run (process id and a counter), for names and subjects. */
export const unique = (): string => `${process.pid}${++seq}`;
