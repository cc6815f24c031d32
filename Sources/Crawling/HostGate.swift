/// At most `limit` requests in flight to one host, whichever task asks (`--per-host`): the image
/// probes of every page share it, so a page naming many images on one host does not open many
/// connections to it, and many pages naming images there do not either. Waiters enter in order.
actor HostGate {
    private let limit: Int
    private var inFlight: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` once a slot for `host` is free, and frees it after.
    func run<Result: Sendable>(host: String, _ work: @Sendable () async -> Result) async -> Result {
        await enter(host)
        let result = await work()
        leave(host)
        return result
    }

    private func enter(_ host: String) async {
        if inFlight[host, default: 0] < limit {
            inFlight[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    private func leave(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            // The slot passes to the first waiter: in flight stays the same.
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            inFlight[host, default: 1] -= 1
            if inFlight[host] == 0 { inFlight[host] = nil }
        }
    }
}
