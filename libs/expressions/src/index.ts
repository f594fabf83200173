export type { BinaryOperator, ExpressionNode, Span, UnaryOperator } from './ast';
export { compile, evaluate, type CompiledExpression, type CompileOptions, type EvaluateOptions, type EvaluationContext, type ExpressionInputs } from './compile';
export { ExpressionError } from './expression-error';
export { BLOCK, type ExpressionInput, type SampleSource } from './program';
export { CONSTANTS, FUNCTIONS, round, type FunctionSpec } from './functions';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_NODES, parse, type ParseOptions } from './parse';
export { LAP_FUNCTIONS, TIME_FUNCTIONS, type LapFunctionName, type TimeFunctionName } from './time-functions';
export { evaluationOrder, findCycle, type DependencyGraph } from './dependencies';
export { mathReadsOf, type MathReads } from './reads';
