// The body of a placement's 400 (placeCall, preflightCall) with one problem: its error and message, and `errors`
// holding that problem alone, with the field it is about.

export interface Problem {
  error: string;
  message: string;
  field: string;
}

/** The exact body of a placement refused for this one problem. */
export const refusedFor = (p: Problem) => ({ error: p.error, message: p.message, errors: [p] });

/** The field a message names first, in backticks (`tools.0.url` ...), as the details of schema errors begin. */
export const fieldNamedIn = (detail: string): string => /`([^`]+)`/.exec(detail)?.[1] ?? '';
