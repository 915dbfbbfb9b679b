extension Duration {
    /// As a `Double` number of seconds: rates, deadlines in epoch seconds, benchmark figures.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
