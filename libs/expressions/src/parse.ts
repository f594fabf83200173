import jsep from 'jsep';
import type { BinaryOperator, ExpressionNode, Span, UnaryOperator } from './ast';
import { ExpressionError } from './expression-error';

/** Longest expression text read, in characters. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Most nodes (numbers, names, operators, calls) in one expression. */
export const MAX_EXPRESSION_NODES = 1000;
/** Deepest nesting of one expression's tree (and of its parentheses while it is parsed). */
export const MAX_EXPRESSION_DEPTH = 100;

const BINARY = new Set<string>(['+', '-', '*', '/', '%', '^', '**', '<', '<=', '>', '>=', '==', '!=', '&&', '||']);
const UNARY = new Set<string>(['-', '+', '!']);

// jsep's operator table and hooks are process-wide; this module is their one user. `^` is the power, as in MDF formulas
// and spreadsheets, not JavaScript's xor: right-associative and binding as tightly as `**`.
jsep.removeBinaryOp('^');
jsep.addBinaryOp('^', 11, true);

// Spans come from jsep's token hooks: a token starts where 'gobble-token' runs and ends where 'after-token' runs.
// jsep skips 'after-token' for numbers, so numbers are read in 'gobble-token' to keep the two paired.
let starts: number[] = [];
let spans = new WeakMap<jsep.Expression, Span>();
jsep.hooks.add('gobble-token', function (this: jsep.HookScope, env: { node?: jsep.Expression }) {
  if (starts.length >= MAX_EXPRESSION_DEPTH) this.throwError(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  starts.push(this.index);
  if ((this.code >= 48 && this.code <= 57) || this.code === 46) env.node = this.gobbleNumericLiteral();
});
jsep.hooks.add('after-token', function (this: jsep.HookScope, env: { node?: jsep.Expression }) {
  const start = starts.pop();
  if (!env.node || start === undefined) return;
  let end = this.index;
  while (end > start && /\s/.test(this.expr[end - 1] ?? '')) end--;
  spans.set(env.node, { start, end });
});

export interface ParseOptions {
  /** A quoted string ("Engine Speed" or 'Engine Speed') is a name: how math channels name channels with spaces. */
  quotedNames?: boolean;
}

/** Parses one expression into its tree; throws ExpressionError naming the position of the first fault. */
export function parse(text: string, options: ParseOptions = {}): ExpressionNode {
  if (text.length > MAX_EXPRESSION_LENGTH) throw new ExpressionError(MAX_EXPRESSION_LENGTH, `longer than ${MAX_EXPRESSION_LENGTH} characters`);
  starts = [];
  spans = new WeakMap();
  let tree: jsep.Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    const { index, description } = error as { index?: number; description?: string };
    if (typeof index !== 'number') throw error;
    throw new ExpressionError(index, lowerFirst(description ?? 'syntax error'));
  }
  return new Reader(text, options.quotedNames === true).read(tree, 1);
}

class Reader {
  private nodes = 0;
  constructor(
    private readonly text: string,
    private readonly quotedNames: boolean,
  ) {}

  read(node: jsep.Expression, depth: number): ExpressionNode {
    const span = this.span(node);
    if (++this.nodes > MAX_EXPRESSION_NODES) throw new ExpressionError(span.start, `more than ${MAX_EXPRESSION_NODES} terms`);
    // A chain such as a + b + c is a tree as deep as it has operators: the reason says how to write a long one.
    if (depth > MAX_EXPRESSION_DEPTH) throw new ExpressionError(span.start, `nested deeper than ${MAX_EXPRESSION_DEPTH} levels (each operator of a chain such as a + b + c is one: group a long chain in parentheses)`);
    switch (node.type) {
      case 'Literal': {
        const { value, raw } = node as jsep.Literal;
        if (typeof value === 'string' && this.quotedNames) {
          const name = quotedName(raw);
          if (name.length === 0) throw new ExpressionError(span.start, 'an empty quoted name');
          return { kind: 'name', name, quoted: true, ...span };
        }
        if (typeof value !== 'number') throw new ExpressionError(span.start, `${raw} is not a number`);
        // A literal past the float64 range reads as Infinity: every sample it touches would be a silent gap.
        if (!Number.isFinite(value)) throw new ExpressionError(span.start, `${raw} is too large a number (at most 1.7976931348623157e308)`);
        return { kind: 'number', value, ...span };
      }
      case 'Identifier':
        return { kind: 'name', name: (node as jsep.Identifier).name, ...span };
      case 'MemberExpression': {
        const name = dottedName(node);
        if (name === null) throw new ExpressionError(span.start, 'only a.b names may use "." (no [] or ?.)');
        return { kind: 'name', name, ...span };
      }
      case 'UnaryExpression': {
        const { operator, argument } = node as jsep.UnaryExpression;
        if (!UNARY.has(operator)) throw new ExpressionError(span.start, `operator ${operator} is not supported`);
        return { kind: 'unary', operator: operator as UnaryOperator, argument: this.read(argument, depth + 1), ...span };
      }
      case 'BinaryExpression': {
        const { operator, left, right } = node as jsep.BinaryExpression;
        const l = this.read(left, depth + 1);
        const r = this.read(right, depth + 1);
        if (!BINARY.has(operator)) throw new ExpressionError(this.skipSpaces(l.end), `operator ${operator} is not supported`);
        const power = operator === '^' || operator === '**';
        // -x^2 reads as (-x)^2 in jsep but as -(x^2) in mathematics: the reader must say which.
        if (power && l.kind === 'unary' && this.text[l.start] !== '(') {
          throw new ExpressionError(l.start, 'a sign before a power is ambiguous: write (-a)^b or -(a^b)');
        }
        return { kind: 'binary', operator: (power ? '^' : operator) as BinaryOperator, left: l, right: r, ...span };
      }
      case 'CallExpression': {
        const { callee, arguments: args } = node as jsep.CallExpression;
        if (callee.type !== 'Identifier') throw new ExpressionError(span.start, 'only a named function may be called');
        return { kind: 'call', callee: (callee as jsep.Identifier).name, args: args.map((a) => this.read(a, depth + 1)), ...span };
      }
      case 'Compound': {
        const body = (node as jsep.Compound).body;
        if (body.length === 0) throw new ExpressionError(0, 'empty expression');
        throw new ExpressionError(this.span(body[1] ?? body[0]).start, 'one expression expected, found more');
      }
      case 'ConditionalExpression':
        throw new ExpressionError(span.start, 'write if(condition, a, b) instead of ? :');
      default:
        throw new ExpressionError(span.start, `${node.type} is not supported`);
    }
  }

  private skipSpaces(at: number): number {
    while (at < this.text.length && /\s/.test(this.text[at])) at++;
    return at;
  }

  /** The token's own span, or for an operator (not a token to jsep) from its first to its last operand. */
  private span(node: jsep.Expression): Span {
    const own = spans.get(node);
    if (own) return own;
    if (node.type === 'BinaryExpression') {
      const { left, right } = node as jsep.BinaryExpression;
      return { start: this.span(left).start, end: this.span(right).end };
    }
    return { start: 0, end: this.text.length };
  }
}

/** `a.b.c` as one name; null for computed (`a[b]`) or optional (`a?.b`) access. */
function dottedName(node: jsep.Expression): string | null {
  if (node.type === 'Identifier') return (node as jsep.Identifier).name;
  if (node.type !== 'MemberExpression') return null;
  const { computed, optional, object, property } = node as jsep.MemberExpression;
  if (computed || optional || property.type !== 'Identifier') return null;
  const head = dottedName(object);
  return head === null ? null : `${head}.${(property as jsep.Identifier).name}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * A quoted name as written: only a backslash before the quote that encloses it, the other quote or another backslash
 * is an escape (`"Say \"hi\""`, `"A\\B"`); any other backslash is the name's own. An MDF channel's display name holds
 * one (`EngineSpeed\CCP:1`): read with JavaScript's escapes it named `EngineSpeedCCP:1`, and `"Temp\new"` a newline.
 */
function quotedName(raw: string): string {
  return raw.slice(1, -1).replace(/\\(["'\\])/g, '$1');
}
