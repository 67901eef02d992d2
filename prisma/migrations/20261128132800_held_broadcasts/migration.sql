-- Issue 45: the broadcast of an anonymous report is held (not delivered, not in the built-in feed)
-- until k people answered its run (lib/domain/anonymous-release.ts); then the run's held
-- broadcasts are released together, in a random order, through the outbox as any pending message.
ALTER TYPE "DeliveryState" ADD VALUE 'held';
