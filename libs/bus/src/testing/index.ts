export { busContract, collector, gate, type BusContractOptions, type ContractBus } from './contract';
export { deleteAmqpNames, deleteAmqpTopology, closeAmqpConnectionsNamed } from './amqp-broker';
