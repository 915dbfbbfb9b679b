import Foundation

/// A finger on the screen, through the W3C Actions API (`POST /session/{id}/actions`): the
/// browser itself dispatches `pointerdown`, `pointermove`, `pointerleave` and `pointerup`, with
/// hit-testing and pointer capture as a person's touch would get them, not events a script made
/// up. The pointer stays down between calls (the session keeps its input state), so a test can
/// press, wait for what the page does while held, and then lift or slide off.
extension HeadlessBrowser {
    /// Which kind of pointer the actions use: a mouse leaves an element it moves off at once; a
    /// touch is captured by the element it went down on (the spec's implicit capture for touch),
    /// so the page sees the slide-off only as a move outside its bounds.
    public enum PointerKind: String, Sendable {
        case mouse, touch, pen
    }

    /// Presses the pointer down in the middle of the first element matching `selector`, scrolled
    /// into the middle of the screen first (as a person scrolls to a button before pressing it).
    public func pointerDown(on selector: String, kind: PointerKind = .mouse) async throws {
        let element = try await element(selector)
        _ = try await evaluate("arguments[0].scrollIntoView({block: 'center'});", [[Self.elementKey: element]])
        try await perform(
            [
                ["type": "pointerMove", "duration": 0, "origin": [Self.elementKey: element], "x": 0, "y": 0],
                ["type": "pointerDown", "button": 0],
            ], kind: kind)
    }

    /// Moves the pressed pointer to `x`, `y` of the viewport, over `milliseconds` (the driver moves it there gradually).
    public func movePointer(toX x: Int, y: Int, milliseconds: Int = 150, kind: PointerKind = .mouse) async throws {
        try await perform(
            [["type": "pointerMove", "duration": milliseconds, "origin": "viewport", "x": x, "y": y]], kind: kind)
    }

    /// Slides the pressed pointer off the element matching `selector`: to a point 40 px below it
    /// (above it when below is off the screen), still inside the viewport.
    public func slidePointerOff(_ selector: String, kind: PointerKind = .mouse) async throws {
        let script = """
            const r = document.querySelector(arguments[0]).getBoundingClientRect();
            const below = r.bottom + 40 < window.innerHeight;
            return [Math.round(r.left + r.width / 2), Math.round(below ? r.bottom + 40 : Math.max(1, r.top - 40))];
            """
        guard let point = try await evaluate(script, [selector]) as? [Int], point.count == 2 else {
            throw Failure(description: "no element \(selector) to slide off")
        }
        try await movePointer(toX: point[0], y: point[1], kind: kind)
    }

    /// Lifts the pointer wherever it is now.
    public func pointerUp(kind: PointerKind = .mouse) async throws {
        try await perform([["type": "pointerUp", "button": 0]], kind: kind)
    }

    /// Types `text` into the first element matching `selector` as key presses (after clearing it).
    public func type(_ text: String, into selector: String) async throws {
        let element = try await element(selector)
        _ = try await command("POST", "element/\(element)/clear", [:] as [String: Any])
        _ = try await command("POST", "element/\(element)/value", ["text": text])
    }

    /// The WebDriver reference of the first element matching `selector`.
    func element(_ selector: String) async throws -> String {
        let found = try await command("POST", "element", ["using": "css selector", "value": selector])
        guard let value = found["value"] as? [String: Any], let element = value[Self.elementKey] as? String else {
            throw Failure(description: "no element \(selector): \(found)")
        }
        return element
    }

    /// One pointer's action sequence. The id is the same for every call, so the driver keeps
    /// one pointer with its pressed state across calls.
    private func perform(_ actions: [[String: Any]], kind: PointerKind) async throws {
        let source: [String: Any] = [
            "type": "pointer", "id": "finger-\(kind.rawValue)", "parameters": ["pointerType": kind.rawValue],
            "actions": actions,
        ]
        _ = try await command("POST", "actions", ["actions": [source]])
    }
}
