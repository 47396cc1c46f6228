/** `en.json?pages`: English texts of the statistics pages, split off the eager bundle (scripts/vite-precompile-messages.ts). */
declare module '*.json?pages' {
  const messages: Record<string, string>;
  export default messages;
}
