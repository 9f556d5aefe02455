/** Vite serves a file's text for an import with `?raw` (test/platform/readme.test.ts reads README.md so). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}
