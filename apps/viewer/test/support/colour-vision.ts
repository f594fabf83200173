// Colour measures for the palette's and the ramp's tests: WCAG contrast, colour-vision deficiency simulated, CIELAB and
// CIEDE2000 colour difference. sRGB colours as '#rrggbb'.

type Rgb = [number, number, number];
type Matrix = [Rgb, Rgb, Rgb];

const channels = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb;
const linear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** WCAG 2's relative luminance of a colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two colours (1 to 21; 3 is the least for graphics, 4.5 for text). */
export function contrastRatio(a: string, b = '#ffffff'): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of color vision deficiency",
 * severity 1.0 (the dichromat: no working L or M cones), applied to linear RGB: the model Chromium's vision-deficiency emulation uses.
 */
export const DEFICIENCY: Record<'protanopia' | 'deuteranopia' | 'tritanopia', Matrix> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/** A colour in CIELAB (D65), as seen with normal vision or, given a deficiency's matrix, as simulated for it. */
export function lab(hex: string, deficiency?: Matrix): Rgb {
  const l = channels(hex).map(linear) as Rgb;
  const [r, g, b] = deficiency ? (deficiency.map((row) => Math.min(1, Math.max(0, row[0] * l[0] + row[1] * l[1] + row[2] * l[2]))) as Rgb) : l;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [x, y, z] = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883].map(f) as Rgb;
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIEDE2000 colour difference of two CIELAB colours (about 2.3 is just noticeable on large patches side by side). */
export function deltaE2000([l1, a1, b1]: Rgb, [l2, a2, b2]: Rgb): number {
  const rad = Math.PI / 180;
  const cMean = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cMean ** 7 / (cMean ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + g) * a1, (1 + g) * a2];
  const [c1, c2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (b: number, a: number) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const [h1, h2] = [hue(b1, a1p), hue(b2, a2p)];
  let dh = c1 * c2 === 0 ? 0 : h2 - h1;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin((dh * rad) / 2);
  const lMean = (l1 + l2) / 2;
  const cpMean = (c1 + c2) / 2;
  const hMean = c1 * c2 === 0 ? h1 + h2 : Math.abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2;
  const t = 1 - 0.17 * Math.cos((hMean - 30) * rad) + 0.24 * Math.cos(2 * hMean * rad) + 0.32 * Math.cos((3 * hMean + 6) * rad) - 0.2 * Math.cos((4 * hMean - 63) * rad);
  const sl = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sc = 1 + 0.045 * cpMean;
  const sh = 1 + 0.015 * cpMean * t;
  const rt = -Math.sin(2 * 30 * Math.exp(-(((hMean - 275) / 25) ** 2)) * rad) * 2 * Math.sqrt(cpMean ** 7 / (cpMean ** 7 + 25 ** 7));
  const [dl, dc, dhs] = [(l2 - l1) / sl, (c2 - c1) / sc, dH / sh];
  return Math.sqrt(dl ** 2 + dc ** 2 + dhs ** 2 + rt * dc * dhs);
}

/** How far apart two colours look, with normal vision or as simulated for a deficiency (CIEDE2000). */
export function difference(a: string, b: string, deficiency?: Matrix): number {
  return deltaE2000(lab(a, deficiency), lab(b, deficiency));
}
