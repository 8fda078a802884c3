// The `--on-take` hooks, carried out: the core's queue (HookQueue, in BoothJobs) decides which try
// runs when, what is saved and what is said (BoothCore+Jobs). The queue is saved on the file worker,
// before each try (its attempt counted) and after a success, with retention run again then: the
// take may go now. The tries are the runner's (HookRunner).
import KioskCore
import KioskStorage

extension Booth {
    /// The core's `.hook(.save)`: the queue saved on the file worker (where the storage keeps one),
    /// then (`thenRetention`) the output folder's retention, which a take whose hook is done no
    /// longer holds back.
    func saveHooks(_ text: String, thenRetention: Bool) {
        let (storage, file) = (storage, storage.hookQueueFile)
        let (rules, protected) = (retention, core.jobs.protectedTakes)
        fileJob {
            if let file { HookQueueFile.save(storage.withTombstones(text), to: file) }
            return .input(.say(thenRetention ? storage.enforce(rules, protected: protected) : []))
        }
    }

    /// The core's `.hook(.run)`: the queue saved (its attempt counted), then the try, once the save
    /// is done; its end comes back as the core's `hookEnded`.
    func runHook(_ run: HookQueue.Run, queue: String) {
        saveHooks(queue, thenRetention: false)
        shared.hooks.run(run, inbox: inbox)
    }
}
