// opentype.js 0.7 ships no types; the captcha (captcha-image.server.ts) uses loadSync only and
// types the font it returns itself.
declare module "opentype.js" {
  const opentype: { loadSync(path: string): unknown };
  export default opentype;
}
