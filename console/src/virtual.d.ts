declare module 'virtual:place-call-schema' {
  /** Each error token of PlaceCallRequest's properties, and the property it is about. */
  export const tokens: Record<string, string>;
  /** The voices placeCall's `voice` description lists. */
  export const voices: string[];
}
declare module '*.css';
