/*
 * heartbeat.js: a worker that ticks for the page's heartbeat (app.js, connectionTimers). A page
 * hidden for a few minutes has its own timers slowed to once a minute by Chrome ("intensive wake
 * up throttling"), too slow for the server, which closes a connection that sent nothing for three
 * heartbeat intervals; a worker's timers are not slowed so. Messages in: {id, ms} starts ticking
 * interval `id` every `ms` milliseconds (0 stops it); out: the id, at each tick.
 */
const intervals = new Map();

onmessage = (event) => {
    const { id, ms } = event.data;
    clearInterval(intervals.get(id));
    intervals.delete(id);
    if (ms > 0) {
        intervals.set(id, setInterval(() => postMessage(id), ms));
    }
};
