import Logging

extension ServerConfiguration {
    /// `verify-server --migrate`: opens the configured store, brings its schema to `StoreSchema.version` (run as the
    /// schema's owner; the service itself may then run with `StoreSchema.postgresGrants` only) and closes it again.
    /// Returns the version reached; throws what the store refused.
    public func migrateStore(logger: Logger) async throws -> Int {
        let store = try await store.open(logger: logger, password: storePassword)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for service in store.services {
                tasks.addTask { try await service.run() }
            }
            defer { tasks.cancelAll() }
            do {
                try await store.prepare()
            } catch {
                tasks.cancelAll()
                try? await (store as? SQLiteRequestStore)?.close()
                throw error
            }
            try? await (store as? SQLiteRequestStore)?.close()
        }
        return StoreSchema.version
    }
}
