export type { BinaryOperator, ExpressionNode, Span, UnaryOperator } from './ast';
export { compile, evaluate, type CompiledExpression, type CompileOptions, type ExpressionInputs } from './compile';
export { ExpressionError } from './expression-error';
export { CONSTANTS, FUNCTIONS, type FunctionSpec } from './functions';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_NODES, parse } from './parse';
