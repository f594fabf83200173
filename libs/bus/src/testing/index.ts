export { busContract, collector, gate, type BusContractOptions, type ContractBus } from './contract';
export { deleteAmqpTopology, closeAmqpConnectionsNamed } from './amqp-broker';
