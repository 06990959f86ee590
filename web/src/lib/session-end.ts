// What feature stores forget when the session ends (sign-out, sign-out everywhere, a session the
// service ended), so that the next person on this browser finds nothing of the previous one's:
// a token's secret, their feedback, their rules. stores/session runs it; this module has no
// dependencies so that stores (and their specs) can register without loading the session.
const forgetters: (() => void)[] = [];

export function onSessionEnd(forget: () => void): void {
  forgetters.push(forget);
}

export function forgetSessionData(): void {
  for (const forget of forgetters) forget();
}
