import Foundation
import SafeWalkCore
import Testing

/// Holds `docs/CONTRACT.md` to the code, so the document cannot drift from it in either
/// direction: every row of its topic table must be a topic ``Topic`` builds and parses, every
/// ``Topic/Kind`` must have exactly one row and a payload section, every JSON example must be read
/// by the code as a payload of its topic, and the reasons table must list exactly the
/// ``EscalationReason``s, each with its level.
///
/// QoS and retain flags are chosen where each service publishes, not in one place, so those
/// columns are only checked for form.
@Suite struct ContractDocumentTests {
    /// A row of the topic table.
    struct TopicRow: CustomStringConvertible {
        var pattern: String
        var direction: String
        var qos: String
        var retained: String
        var description: String { "`\(pattern)`" }
    }

    static let sampleWalker = WalkerID(validating: "alice")!
    static let sampleService = ServiceName.watchdog
    static let sampleDevice = DeviceName(validating: "phone")!

    /// One topic of every kind, for the sample walker, service and device.
    static let sampleTopics: [Topic] = Topic.Kind.allCases.compactMap { kind in
        switch kind.scope {
        case .walker, .servicesAboutWalker: Topic(kind, walker: sampleWalker)
        case .service: Topic(kind, service: sampleService)
        case .owntracks: .owntracks(user: sampleWalker, device: sampleDevice)
        case .system: Topic(system: kind)
        }
    }

    static func document() throws -> String {
        // Tests/SafeWalkCoreTests/<this file> → the package root.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/CONTRACT.md"), encoding: .utf8)
    }

    /// The topic name a pattern stands for under `prefix`, with the sample names filled in.
    static func expand(_ pattern: String, prefix: String = Topic.defaultPrefix) -> String {
        let name =
            pattern
            .replacingOccurrences(of: "{w}", with: sampleWalker.rawValue)
            .replacingOccurrences(of: "{user}", with: sampleWalker.rawValue)
            .replacingOccurrences(of: "{device}", with: sampleDevice.rawValue)
            .replacingOccurrences(of: "{service}", with: sampleService.rawValue)
        return name.hasPrefix("owntracks/") ? name : "\(prefix)/\(name)"
    }

    /// The cells of a Markdown table line (`\|` inside a cell is not a separator).
    static func cells(_ line: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var previous: Character = " "
        for character in line.dropFirst() {  // the leading `|`
            if character == "|" && previous != "\\" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        return cells
    }

    /// The rows of the first table after the heading `heading`, header and separator dropped.
    static func table(after heading: String, in text: String) throws -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == heading }, "no \(heading) in docs/CONTRACT.md")
        let tableLines = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return tableLines.dropFirst(2).map(cells)
    }

    /// The text between the first pair of backticks of a cell or heading.
    static func code(_ text: String) -> String? {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    static func topicRows() throws -> [TopicRow] {
        try table(after: "## Topics", in: document()).map { cells in
            let pattern = try #require(code(cells[0]), "first cell not in backticks: \(cells)")
            return TopicRow(pattern: pattern, direction: cells[1], qos: cells[2], retained: cells[3])
        }
    }

    @Test func theSampleTopicsCoverEveryKind() {
        #expect(
            Self.sampleTopics.map(\.kind).sorted { $0.rawValue < $1.rawValue }
                == Topic.Kind.allCases.sorted { $0.rawValue < $1.rawValue })
    }

    @Test func everyRowIsATopicTheCodeBuildsAndParses() throws {
        let rows = try Self.topicRows()
        #expect(rows.count >= Topic.Kind.allCases.count)
        for row in rows {
            let name = Self.expand(row.pattern)
            let topic = try #require(Topic.parse(name), "\(row) is not a topic the code parses")
            #expect(Self.sampleTopics.contains(topic), "\(row)")
            #expect(topic.name() == name, "\(row)")
            let prefix = "tenant-a/safewalk"
            #expect(Topic.parse(Self.expand(row.pattern, prefix: prefix), prefix: prefix) == topic, "\(row)")
            #expect(topic.name(prefix: prefix) == Self.expand(row.pattern, prefix: prefix), "\(row)")
        }
    }

    @Test func everyTopicKindHasExactlyOneRow() throws {
        let kinds = try Self.topicRows().compactMap { Topic.parse(Self.expand($0.pattern))?.kind }
        for kind in Topic.Kind.allCases {
            #expect(kinds.filter { $0 == kind }.count == 1, "\(kind) needs exactly one row in the topic table")
        }
    }

    @Test func theQoSAndRetainedColumnsAreWellFormed() throws {
        for row in try Self.topicRows() {
            #expect(["0", "1", "0 or 1"].contains(row.qos), "\(row): QoS \(row.qos)")
            #expect(["yes", "no"].contains(row.retained), "\(row): retained \(row.retained)")
            #expect(row.direction.contains("→"), "\(row): direction \(row.direction)")
        }
    }

    @Test func everyTopicHasAPayloadSection() throws {
        let text = try Self.document()
        for row in try Self.topicRows() {
            #expect(text.contains("\n### `\(row.pattern)`\n"), "no payload section for \(row)")
        }
    }

    /// Reads one example as a payload of `kind`; throws when the code would refuse it.
    static func read(_ payload: Data, as kind: Topic.Kind) throws {
        switch kind {
        case .fix, .owntracks:
            guard case .fix = try FixDecoder.parse(payload) else { throw PayloadError.invalidValue("_type") }
        case .reply: _ = try SafeWalkJSON.decode(Reply.self, from: payload)
        case .action: _ = try SafeWalkJSON.decode(Action.self, from: payload)
        case .actionResult: _ = try SafeWalkJSON.decode(ActionResult.self, from: payload)
        case .inputRejected: _ = try SafeWalkJSON.decode(InputRefusal.self, from: payload)
        case .position: _ = try SafeWalkJSON.decode(PositionUpdate.self, from: payload)
        case .status: _ = try SafeWalkJSON.decode(WatchStatus.self, from: payload)
        case .prompt: _ = try SafeWalkJSON.decode(CheckInPrompt.self, from: payload)
        case .chat: _ = try SafeWalkJSON.decode(ChatMessage.self, from: payload)
        case .escalation: _ = try SafeWalkJSON.decode(EscalationEvent.self, from: payload)
        case .contactsAdd: _ = try SafeWalkJSON.decode(ContactAdd.self, from: payload)
        case .contactsRemove: _ = try SafeWalkJSON.decode(ContactRemove.self, from: payload)
        case .contacts: _ = try SafeWalkJSON.decode(ContactList.self, from: payload)
        case .contactsResult: _ = try SafeWalkJSON.decode(ContactResult.self, from: payload)
        case .alert: _ = try SafeWalkJSON.decode(DeviceAlert.self, from: payload)
        case .delivery: _ = try SafeWalkJSON.decode(DeliveryReceipt.self, from: payload)
        case .rejected: _ = try SafeWalkJSON.decode(Rejection.self, from: payload)
        case .accountCommand: _ = try SafeWalkJSON.decode(AccountCommand.self, from: payload)
        case .accountResult: _ = try SafeWalkJSON.decode(AccountCommandResult.self, from: payload)
        case .accountErase: _ = try SafeWalkJSON.decode(EraseRequest.self, from: payload)
        case .accountErased: _ = try SafeWalkJSON.decode(EraseReport.self, from: payload)
        case .incident: _ = try SafeWalkJSON.decode(IncidentState.self, from: payload)
        case .arrival: _ = try SafeWalkJSON.decode(Arrival.self, from: payload)
        case .ladder: _ = try SafeWalkJSON.decode(LadderState.self, from: payload)
        case .acknowledgementRequest: _ = try SafeWalkJSON.decode(AcknowledgementRequest.self, from: payload)
        case .acknowledgementResult: _ = try SafeWalkJSON.decode(AcknowledgementResult.self, from: payload)
        case .gatewayReceipt: _ = try SafeWalkJSON.decode(GatewayReceipt.self, from: payload)
        case .circleCommand: _ = try SafeWalkJSON.decode(CircleCommand.self, from: payload)
        case .circleResult: _ = try SafeWalkJSON.decode(CircleResult.self, from: payload)
        case .circle: _ = try SafeWalkJSON.decode(CircleView.self, from: payload)
        case .inbox: _ = try SafeWalkJSON.decode(InboxEvent.self, from: payload)
        case .member: _ = try SafeWalkJSON.decode(Member.self, from: payload)
        case .deskClose: _ = try SafeWalkJSON.decode(DeskClose.self, from: payload)
        case .deskResult: _ = try SafeWalkJSON.decode(DeskCloseResult.self, from: payload)
        case .deskNotice: _ = try SafeWalkJSON.decode(DeskNotice.self, from: payload)
        case .escalationReceived: _ = try SafeWalkJSON.decode(EscalationReceipt.self, from: payload)
        case .presence, .serviceStatus, .heartbeat:
            guard Presence(payload: payload) != nil else { throw PayloadError.malformed }
        }
    }

    @Test func everyExampleIsAPayloadTheCodeReads() throws {
        var kind: Topic.Kind?
        var fence: String?
        var examples = 0
        for line in try Self.document().split(separator: "\n") {
            if line.hasPrefix("#") {
                kind =
                    line.hasPrefix("### `")
                    ? Self.code(String(line)).flatMap { Topic.parse(Self.expand($0))?.kind } : nil
            } else if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)) : nil
            } else if let fence, let kind,
                fence == "json" || (fence == "text" && [.presence, .serviceStatus, .heartbeat].contains(kind))
            {
                examples += 1
                do {
                    try Self.read(Data(line.utf8), as: kind)
                } catch {
                    Issue.record("the code refuses this \(kind) example (\(error)): \(line)")
                }
            }
        }
        #expect(examples >= Topic.Kind.allCases.count)
    }

    @Test func theReasonsTableListsEveryEscalationReasonWithItsLevel() throws {
        let rows = try Self.table(after: "### Reasons and levels", in: Self.document())
        #expect(rows.compactMap { Self.code($0[0]) }.sorted() == EscalationReason.allCases.map(\.rawValue).sorted())
        for reason in EscalationReason.allCases {
            let row = rows.first { Self.code($0[0]) == reason.rawValue }
            #expect(row != nil, "\(reason) is not in the reasons table")
            if let row { #expect(row[1].contains(reason.defaultLevel.rawValue), "\(reason): \(row[1])") }
        }
        for level in EscalationLevel.allCases {
            #expect(rows.contains { $0[1].contains(level.rawValue) }, "\(level)")
        }
    }
}
