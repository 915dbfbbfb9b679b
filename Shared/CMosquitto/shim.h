#ifndef SAFEWALK_CMOSQUITTO_SHIM_H
#define SAFEWALK_CMOSQUITTO_SHIM_H
// The one C library SafeWalk binds to. Only SafeWalkMQTT imports this module.
#include <mosquitto.h>
#endif
