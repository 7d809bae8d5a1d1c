// lib/store: the only place that talks to the database. Repositories speak in intents
// (recordSandbox, appendEvent, saveGatewaySettings); Prisma stays inside this folder.
export { openStore, redactPassword, type Store, type StoreKind, type StoreLocation } from "./open-store.ts";
export { DataDirInUseError } from "../platform/data-dir-lock.ts";
export { MigrationError, type MigrationReport } from "./migrator.ts";
export { InvalidCursorError } from "./cursor.ts";
export { SandboxNameTakenError, SandboxNotFoundError, type NewSandbox } from "./sandbox-repository.ts";
export type { StoredGatewaySetting, GatewaySettingKey } from "./settings-repository.ts";
export { MaintenanceAlreadyRunningError, type TakenRun } from "./maintenance-repository.ts";
export { OperationInFlightError, type OperationKind, type OperationRepository, type RunningOperation } from "./operation-repository.ts";
export { DeposedWriterError, type WriterFence } from "./writer-term-repository.ts";
