import CMosquitto

extension MQTTClient {
    /// Credentials, TLS, Last Will, backoff and in-flight window, set before the first connect.
    func applyOptions() throws(MQTTError) {
        let config = configuration
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        // Nagle's algorithm held each small publish back until the broker's next packet arrived:
        // a service that awaits every PUBACK in turn (the circle's loop) managed 26 escalations/s
        // of 50 and fell 18 s behind; with no delay, p99 45 ms (circle-bench, BENCHMARKS.md).
        try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
        if let username = config.username {
            try check(mosquitto_username_pw_set(handle, username, config.password), "username/password")
        }
        if let tls = config.tls {
            try check(
                mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil),
                "TLS files (ca \(tls.caFile))")
            if tls.allowInsecureHostname {
                try check(mosquitto_tls_insecure_set(handle, true), "TLS insecure mode")
            }
        }
        if let will = config.lastWill {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(
                    handle, will.topic, Int32(bytes.count), bytes.baseAddress,
                    will.qos.rawValue, will.retain)
            }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw MosquittoLibrary.error(rc, topic: will.topic) }
        }
        // Reconnects are ours (MQTTClient+NetworkThread), with `reconnectDelayMin`/`Max`; this
        // tells libmosquitto that a thread of ours runs its loop, so a publish from any other
        // thread only queues its packet and wakes that loop.
        try check(mosquitto_threaded_set(handle, true), "threaded mode")
        try check(mosquitto_max_inflight_messages_set(handle, config.maxInflightMessages), "max in-flight")
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw .invalidConfiguration("\(what): \(MosquittoLibrary.message(for: rc))")
        }
    }
}
