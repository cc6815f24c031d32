/// Computes a value once per key, however many tasks ask at the same time: the first asker starts
/// the work, the others wait for the same result, later askers get it from memory. With a
/// `limit`, at most that many keys are ever computed: a new key past it gets nil
/// (`valueWithinLimit`).
actor OnceEach<Key: Hashable & Sendable, Value: Sendable> {
    private var values: [Key: Value] = [:]
    private var pending: [Key: Task<Value, Never>] = [:]
    private let limit: Int
    /// Keys computed or being computed.
    private(set) var admitted = 0

    init(limit: Int = .max) {
        self.limit = limit
    }

    func value(for key: Key, compute: @escaping @Sendable () async -> Value) async -> Value {
        if let value = values[key] { return value }
        if let task = pending[key] { return await task.value }
        admitted += 1
        let task = Task { await compute() }
        pending[key] = task
        let value = await task.value
        values[key] = value
        pending[key] = nil
        return value
    }

    /// The value for `key`, or nil when `key` is new and `limit` keys were admitted already.
    func valueWithinLimit(for key: Key, compute: @escaping @Sendable () async -> Value) async -> Value? {
        if values[key] == nil, pending[key] == nil, admitted >= limit { return nil }
        return await value(for: key, compute: compute)
    }
}
