// The stand-in external simulation system as the composition root (apps/standalone, `npm start`'s demo), the
// simulation-service's component tests, the e2e tests and the simulations bench start it: `@pitwall/simulation-standin`.
export { KEPT, MAX_BODY_BYTES, standInResults, startSimulationStandIn, type SimulationStandIn, type StandInCall, type StandInOptions, type StandInScenario, type Study } from './server';
