extension Array where Element: Sendable {
    /// `transform` of every element, run concurrently (each in a child task), in the array's order
    /// whatever finishes first. For I/O-bound work whose limits live elsewhere (`HostGate`).
    func concurrentlyMapped<Output: Sendable>(
        _ transform: @escaping @Sendable (Element) async -> Output
    ) async -> [Output] {
        await withTaskGroup(of: (Int, Output).self) { group in
            for (index, element) in enumerated() {
                group.addTask { (index, await transform(element)) }
            }
            var outputs = [Output?](repeating: nil, count: count)
            for await (index, output) in group { outputs[index] = output }
            return outputs.map { $0! }
        }
    }
}
