import type { BinaryView } from '../binary-view';
import type { ChannelLabel } from '../model';
import { applyConversion, type Conversion } from '../mdf4/conversion';
import { link, readBlock, type TextBlocks, textField } from './blocks';

/**
 * An MDF 3 CCBLOCK reduced to what decoding needs: the kinds it shares with MDF 4 (linear, rational, tables, texts)
 * are MDF 4's and applied by its code; polynomial, exponential and logarithmic formulas are MDF 3's own.
 */
export type Mdf3Conversion = Conversion | { kind: 'polynomial'; p: number[] } | { kind: 'exponential' | 'logarithmic'; p: number[] };

const CC = { unit: 22, type: 42, sizeInfo: 44, params: 46 } as const;
const IDENTITY: Mdf3Conversion = { kind: 'identity' };

/** Conversion types by number, for the features a channel is refused for. */
const UNREAD: Record<number, string> = {
  10: 'ASAM-MCD2 text formula conversion (cc_type 10)',
  132: 'date conversion (cc_type 132)',
  133: 'time conversion (cc_type 133)',
};

/**
 * Reads CCBLOCKs, each once (many channels may share one; a text range table names up to 65,535 texts).
 * Bytes the block claims beyond its size are corrupt; a conversion this reader does not compute is `unsupported`.
 */
export class Conversions {
  private readonly cache = new Map<number, { conversion: Mdf3Conversion; unit: string }>();

  constructor(
    private readonly bin: BinaryView,
    private readonly texts: TextBlocks,
  ) {}

  read(offset: number): { conversion: Mdf3Conversion; unit: string } {
    if (offset === 0) return { conversion: IDENTITY, unit: '' };
    let known = this.cache.get(offset);
    if (!known) this.cache.set(offset, (known = this.parse(offset)));
    return known;
  }

  private parse(offset: number): { conversion: Mdf3Conversion; unit: string } {
    const { bin } = this;
    const block = readBlock(bin, offset, 'CC', CC.params);
    const unit = textField(bin, offset + CC.unit, 20);
    const type = bin.u16(offset + CC.type);
    const count = bin.u16(offset + CC.sizeInfo);
    const params = offset + CC.params;
    const fits = (bytes: number, what: string) => {
      if (CC.params + bytes > block.size) throw bin.corrupt(`CCBLOCK of type ${type} needs ${what} (${bytes} bytes) but has room for fewer`, offset + 2);
    };
    const doubles = (n: number) => {
      fits(8 * n, `${n} parameters`);
      return Array.from({ length: n }, (_, i) => bin.f64(params + 8 * i));
    };
    const withUnit = (conversion: Mdf3Conversion) => ({ conversion, unit });

    switch (type) {
      case 65535:
        return withUnit(IDENTITY);
      case 0: {
        const [offsetP1, factorP2] = doubles(2);
        return withUnit({ kind: 'linear', offset: offsetP1, factor: factorP2 });
      }
      case 1:
      case 2: {
        if (count === 0) throw bin.corrupt('CCBLOCK table has no entries', offset + CC.sizeInfo);
        const pairs = doubles(2 * count);
        const keys = Array.from({ length: count }, (_, i) => pairs[2 * i]);
        const values = Array.from({ length: count }, (_, i) => pairs[2 * i + 1]);
        return withUnit({ kind: 'table', keys, values, interpolate: type === 1 });
      }
      case 6:
        return withUnit({ kind: 'polynomial', p: doubles(6) });
      case 7:
      case 8: {
        const p = doubles(7);
        const kind = type === 7 ? 'exponential' : 'logarithmic';
        // The formula has two forms, chosen by P4 = 0 or P1 = 0; with neither it is undefined.
        if (p[3] !== 0 && p[0] !== 0) return withUnit({ kind: 'unsupported', feature: `${kind} conversion (cc_type ${type}) with both P1 and P4 non-zero` });
        return withUnit({ kind, p });
      }
      case 9:
        return withUnit({ kind: 'rational', p: doubles(6) });
      case 11: {
        fits(40 * count, `${count} value/text entries`);
        const labels: ChannelLabel[] = Array.from({ length: count }, (_, i) => {
          const value = bin.f64(params + 40 * i);
          return { min: value, max: value, text: textField(bin, params + 40 * i + 8, 32) };
        });
        return withUnit({ kind: 'text', labels });
      }
      case 12: {
        // The first entry is the default text (its bounds are unused); the ranges follow.
        if (count === 0) throw bin.corrupt('CCBLOCK text range table has no default entry', offset + CC.sizeInfo);
        fits(20 * count, `${count} range/text entries`);
        const text = (i: number) => this.texts.read(link(bin, params + 20 * i + 16));
        const labels: ChannelLabel[] = [];
        for (let i = 1; i < count; i++) labels.push({ min: bin.f64(params + 20 * i), max: bin.f64(params + 20 * i + 8), text: text(i) });
        const defaultLabel = text(0);
        return withUnit({ kind: 'text', labels, ...(defaultLabel ? { defaultLabel } : {}) });
      }
      default:
        // TODO(libs/expressions): evaluate cc_type 10 formulas once the expression library lands.
        return withUnit({ kind: 'unsupported', feature: UNREAD[type] ?? `conversion type ${type}` });
    }
  }
}

/** Applies a numeric conversion in place; `integerRaw` selects the closed range rule of range tables. */
export function applyMdf3Conversion(conversion: Mdf3Conversion, values: Float64Array, integerRaw: boolean): void {
  const n = values.length;
  switch (conversion.kind) {
    case 'polynomial': {
      const [p1, p2, p3, p4, p5, p6] = conversion.p;
      for (let i = 0; i < n; i++) {
        const x = values[i] - p5 - p6;
        values[i] = (p2 - p4 * x) / (p3 * x - p1);
      }
      return;
    }
    case 'exponential':
    case 'logarithmic': {
      // Checked against asammdf's ChannelConversion.convert (v2_v3_blocks.py) and mdflib's ConvertExponential /
      // ConvertLogarithmic: the same two forms, P4 = 0 first, then P1 = 0 (neither is refused at parse); exp for cc 7 and
      // ln for cc 8 (asammdf had them the other way round until its issue #809, 2023). The MDF 3.3.1 text was not at hand.
      const f = conversion.kind === 'exponential' ? Math.exp : Math.log;
      const [p1, p2, p3, p4, p5, p6, p7] = conversion.p;
      if (p4 === 0) for (let i = 0; i < n; i++) values[i] = f(((values[i] - p7) * p6 - p3) / p1) / p2;
      else for (let i = 0; i < n; i++) values[i] = f((p3 / (values[i] - p7) - p6) / p4) / p5;
      return;
    }
    default:
      applyConversion(conversion, values, integerRaw);
  }
}
