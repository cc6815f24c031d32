/// Computes a value once per key, however many tasks ask at the same time: the first asker starts
/// the work, the others wait for the same result, later askers get it from memory.
actor OnceEach<Key: Hashable & Sendable, Value: Sendable> {
    private var values: [Key: Value] = [:]
    private var pending: [Key: Task<Value, Never>] = [:]

    func value(for key: Key, compute: @escaping @Sendable () async -> Value) async -> Value {
        if let value = values[key] { return value }
        if let task = pending[key] { return await task.value }
        let task = Task { await compute() }
        pending[key] = task
        let value = await task.value
        values[key] = value
        pending[key] = nil
        return value
    }
}
