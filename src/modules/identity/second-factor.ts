// What a password sign-in asks of the second factor, apart from how the factor works (totp.service.ts).

/** What a password sign-in answers, instead of tokens, to a person with a confirmed second factor. */
export interface SecondFactorChallenge {
  second_factor: 'totp';
  ticket: string;
  expires_in: number;
}

/** The password sign-in's question: does this person owe a second factor, and with which ticket. */
export interface SecondFactorGate {
  /** a ticket when the person has a confirmed factor, else null (the sign-in completes at once) */
  challenge(userId: number): Promise<SecondFactorChallenge | null>;
}
