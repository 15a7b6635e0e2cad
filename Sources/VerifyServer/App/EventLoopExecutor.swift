import NIOCore
import NIOPosix

/// Runs Swift Concurrency's tasks on the server's event loops.
public enum EventLoopExecutor {
    /// Makes NIO's event loops (`MultiThreadedEventLoopGroup.singleton`, one per core, which Hummingbird serves on)
    /// Swift Concurrency's global executor, so a request's handler runs on the thread that read its bytes and hands
    /// its response to the socket without waking another thread. With the default pool each call crossed threads
    /// four times, and on two cores the task switches cost more than the HTTP handling itself.
    ///
    /// Call it first thing in `main`, from the main thread, once. Returns false (and changes nothing) where the
    /// runtime does not offer the hook; the server then runs on the default pool.
    @discardableResult
    public static func install() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
