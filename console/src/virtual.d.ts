declare module 'virtual:place-call-schema' {
  const fields: { name: string; required: boolean; kind: 'text' | 'textarea' | 'json' | 'pairs' | 'boolean'; maxLength: number | null; description: string }[];
  export default fields;
}
declare module '*.css';
