import { ExpressionError, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_NODES, parse } from '../src';

function errorOf(text: string): ExpressionError {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${text} parsed`);
}

describe('parse', () => {
  it('when an MDF formula is parsed, then the tree has the precedence of arithmetic and each node its span', () => {
    expect(parse('X * 2 + 1')).toEqual({
      kind: 'binary',
      operator: '+',
      start: 0,
      end: 9,
      left: {
        kind: 'binary',
        operator: '*',
        start: 0,
        end: 5,
        left: { kind: 'name', name: 'X', start: 0, end: 1 },
        right: { kind: 'number', value: 2, start: 4, end: 5 },
      },
      right: { kind: 'number', value: 1, start: 8, end: 9 },
    });
  });

  it('when a call and parentheses are parsed, then the spans cover them', () => {
    const tree = parse(' 2 * sin( X ) ');
    expect(tree).toMatchObject({ kind: 'binary', start: 1, end: 13, right: { kind: 'call', callee: 'sin', start: 5, end: 13, args: [{ kind: 'name', start: 10, end: 11 }] } });
    expect(parse('(X + 1) / 2')).toMatchObject({ left: { kind: 'binary', operator: '+', start: 0, end: 7 } });
  });

  it('when ^ and ** are used, then both are the power, right-associative and above * (not xor)', () => {
    expect(parse('2 ^ 3 ^ 2')).toMatchObject({ operator: '^', left: { value: 2 }, right: { operator: '^' } });
    expect(parse('a * b ** 2')).toMatchObject({ operator: '*', right: { operator: '^' } });
    expect(parse('X ^ 2 + 1')).toMatchObject({ operator: '+', left: { operator: '^' } });
  });

  it('when a sign stands before a power without parentheses, then it is refused as ambiguous, and accepted parenthesised', () => {
    expect(errorOf('-X ^ 2')).toMatchObject({ position: 0, reason: expect.stringContaining('ambiguous') });
    expect(parse('(-X) ^ 2')).toMatchObject({ operator: '^', left: { kind: 'unary', operator: '-' } });
    expect(parse('-(X ^ 2)')).toMatchObject({ kind: 'unary', argument: { operator: '^' } });
  });

  it('when comparisons and logic are combined, then && binds tighter than || and comparisons tighter than both', () => {
    expect(parse('a < 1 || b >= 2 && !c')).toMatchObject({
      operator: '||',
      left: { operator: '<' },
      right: { operator: '&&', left: { operator: '>=' }, right: { kind: 'unary', operator: '!' } },
    });
  });

  it('when a dotted name is read, then it is one name (a structure field)', () => {
    expect(parse('struct_ch.sx * 2')).toMatchObject({ left: { kind: 'name', name: 'struct_ch.sx', start: 0, end: 12 } });
    expect(errorOf('a[1]').reason).toContain('a.b');
  });

  it.each([
    ['X * ', 4, 'expected expression'],
    ['X + (1', 6, 'unclosed ('],
    ['X 2', 2, 'one expression expected'],
    ['', 0, 'empty expression'],
    ['X & 2', 2, 'operator & is not supported'],
    ['X | 2', 2, 'operator | is not supported'],
    ['~X', 0, 'operator ~ is not supported'],
    ["'a' + 1", 0, "'a' is not a number"],
    ['true', 0, 'true is not a number'],
    ['X * 1e999', 4, '1e999 is too large a number'],
    ['X > 0 ? 1 : 2', 0, 'if(condition, a, b)'],
    ['f(1)(2)', 0, 'only a named function'],
  ])('when %j is parsed, then an ExpressionError at %i says %s', (text, position, reason) => {
    const error = errorOf(text);
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.reason.toLowerCase()).toContain(reason.toLowerCase());
    expect(error.position).toBe(position);
    expect(error.message).toContain(`at character ${position}`);
  });

  it('when the text, the tree or the nesting is past its limit, then it is refused before any deep recursion', () => {
    expect(errorOf('1+'.repeat(MAX_EXPRESSION_LENGTH) + '1').reason).toContain(`${MAX_EXPRESSION_LENGTH} characters`);
    expect(errorOf('('.repeat(MAX_EXPRESSION_DEPTH + 1) + 'X' + ')'.repeat(MAX_EXPRESSION_DEPTH + 1)).reason).toContain('nested deeper');
    expect(errorOf('-'.repeat(5 * MAX_EXPRESSION_DEPTH) + 'X').reason).toContain('nested deeper');
    const chain = Array.from({ length: MAX_EXPRESSION_DEPTH + 1 }, () => 'X');
    expect(errorOf(chain.join('+')).reason).toBe(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels (each operator of a chain such as a + b + c is one: group a long chain in parentheses)`);
    // The same chain grouped as the reason says is read.
    expect(() => parse(`(${chain.slice(0, 50).join('+')}) + (${chain.slice(50).join('+')})`)).not.toThrow();
    const wide = Array.from({ length: 40 }, () => `(${Array.from({ length: 30 }, () => 'X').join('*')})`).join('+');
    expect(errorOf(wide).reason).toContain(`more than ${MAX_EXPRESSION_NODES} terms`);
    expect(() => parse(Array.from({ length: MAX_EXPRESSION_DEPTH - 1 }, () => 'X').join('+'))).not.toThrow();
  });

  it('when a parse fails, then the next parse is unaffected (no state is left behind)', () => {
    errorOf('((((X');
    expect(parse('X + 1')).toMatchObject({ start: 0, end: 5, right: { start: 4, end: 5 } });
  });
});
