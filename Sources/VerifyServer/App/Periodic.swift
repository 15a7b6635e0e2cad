import ServiceLifecycle

/// Runs `body` after every `interval` until the task is cancelled or graceful shutdown begins: the loop of the
/// server's housekeeping services.
func repeatEvery(_ interval: Duration, _ body: @escaping @Sendable () async -> Void) async {
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await body()
        }
    }
}
