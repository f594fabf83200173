/** Where a node sits in the expression's text: characters [start, end), 0-based (UTF-16 code units). */
export interface Span {
  start: number;
  end: number;
}

/** `**` is read as `^`: both are the power. Comparisons and logic give 1 or 0. */
export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '^' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';
export type UnaryOperator = '-' | '+' | '!';

/** The syntax tree of one expression; names are inputs (channels) or constants, `a.b` is one name (a structure's field). */
export type ExpressionNode =
  | ({ kind: 'number'; value: number } & Span)
  /** `quoted`: written as a string ("pi"), always a name, never a constant. */
  | ({ kind: 'name'; name: string; quoted?: true } & Span)
  | ({ kind: 'unary'; operator: UnaryOperator; argument: ExpressionNode } & Span)
  | ({ kind: 'binary'; operator: BinaryOperator; left: ExpressionNode; right: ExpressionNode } & Span)
  | ({ kind: 'call'; callee: string; args: ExpressionNode[] } & Span);
