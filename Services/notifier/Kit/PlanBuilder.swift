import Foundation
import SafeWalkCore

/// Builds a ``DeliveryPlan`` from an escalation and the walker's contacts, purely, on top of
/// SafeWalkCore's `AlertComposer`, `HelpMessage` and `EscalationLinks`.
public enum PlanBuilder {
    public static func plan(
        for event: EscalationEvent, contacts: [Contact], emergency: EmergencyNumber,
        now: EpochSeconds, timeZone: TimeZone
    ) -> DeliveryPlan {
        let (recipients, undialable) = sort(contacts)
        let dialable = recipients.map {
            Contact(id: $0.contactID, name: $0.name, phone: $0.phone, dialable: true, reason: nil)
        }
        let composed = AlertComposer.compose(
            event, name: event.walker.rawValue, contacts: dialable, emergency: emergency, now: now,
            timeZone: timeZone)
        let urgency: DeliveryPlan.Urgency =
            event.reason == .panic && event.level == .amber ? .keepAnEye : .helpNow
        var actions: [AlertAction] = []
        for action in composed.alert.actions {
            if action.url.hasPrefix("tel:") {
                // Amber panic: contacts keep an eye on the walker; no police action is offered.
                if urgency == .helpNow { actions.append(action) }
            } else if action.url.hasPrefix("sms:") {
                let count = composed.sms.recipients.count
                actions.append(AlertAction(title: "Text \(count) contact\(count == 1 ? "" : "s")", url: action.url))
            }
        }
        let title =
            urgency == .keepAnEye
            ? "SafeWalk: your contacts are asked to keep an eye on you" : "SafeWalk: get help now"
        return DeliveryPlan(
            escalationId: event.id, walker: event.walker, urgency: urgency, message: composed.message,
            alert: DeviceAlert(title: title, body: composed.message, actions: actions, id: event.id),
            recipients: recipients, undialable: undialable,
            hiddenFromDevice: DeviceDisclosure.mayTellDevice(about: event) ? nil : true)
    }

    /// Splits contacts into dialable recipients (deduplicated by number) and undialable ones.
    /// The number is normalised again here: the list arrives over the network, and a contact
    /// the store marked undialable stays undialable even if its text happens to normalise.
    static func sort(_ contacts: [Contact]) -> ([DeliveryPlan.Recipient], [DeliveryPlan.Undialable]) {
        var recipients: [DeliveryPlan.Recipient] = []
        var undialable: [DeliveryPlan.Undialable] = []
        for contact in contacts {
            switch PhoneNumber.normalise(contact.phone) {
            case .dialable(let number) where contact.dialable:
                if !recipients.contains(where: { $0.phone == number }) {
                    recipients.append(.init(contactID: contact.id, name: contact.name, phone: number))
                }
            case .dialable:
                undialable.append(
                    .init(
                        contactID: contact.id, masked: PhoneNumber.masked(contact.phone),
                        reason: contact.reason ?? .invalidCharacter))
            case .undialable(let reason):
                undialable.append(
                    .init(
                        contactID: contact.id, masked: PhoneNumber.masked(contact.phone), reason: reason))
            }
        }
        return (recipients, undialable)
    }
}
