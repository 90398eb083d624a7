/** The machine line of every section now lives in the harness (src/harness/machine.ts); this path stays for src/oracle's imports. */
export { formatMachine, machineInfo, type MachineInfo } from './harness/machine.js';
