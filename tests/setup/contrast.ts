// WCAG 2 contrast between two colours given as Tailwind's "r g b" variable values.

/** The relative luminance of an "r g b" colour (0–255 each). */
export function luminance(rgb: string) {
  const [r, g, b] = rgb.split(" ").map((part) => {
    const c = Number(part) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two "r g b" colours, lighter over darker (1 to 21). */
export function contrast(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
