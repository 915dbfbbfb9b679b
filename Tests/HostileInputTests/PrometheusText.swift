import Foundation

/// Reads counters out of the Prometheus text exposition format.
enum PrometheusText {
    /// The samples of counter `name`, summed by the value of `label`
    /// (`name{service="x",reason="y"} 3` → `["y": 3]`). Samples without the label are skipped.
    static func counter(_ name: String, by label: String, in text: String) -> [String: Int] {
        var totals: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") {
            guard let close = line.lastIndex(of: "}"),
                let value = Double(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)),
                let key = labels(String(line[line.index(line.startIndex, offsetBy: name.count + 1)..<close]))[label]
            else { continue }
            totals[key, default: 0] += Int(value)
        }
        return totals
    }

    /// `a="1",b="2"` → `["a": "1", "b": "2"]` (our label values hold no quotes or commas).
    static func labels(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            result[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return result
    }
}
