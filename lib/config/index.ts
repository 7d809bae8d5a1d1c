export {
  CLUSTER_MODES,
  ConfigError,
  loadServerConfig,
  loadServerConfigFromProcess,
  type ClusterMode,
  type ConfigInputs,
  type ConfigSource,
  type LeaderElectionConfig,
  type ServerConfig,
} from "./server-config.ts";
export { GATEWAY_KEYS, environmentVariableFor, helmValueFor, type GatewayKey } from "./gateway-keys.ts";
export { simulatorConfigSchema, SIMULATOR_VARIABLES, type SimulatorConfig } from "./simulator-config.ts";
