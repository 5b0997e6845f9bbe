-- Protection plans and promotions as the settings screens read them (protection_settings_updated,
-- promotions_updated). protection: the scope's own ProtectionSettings (contracts/src/protection.ts),
-- null: none (the business) or the business's (a facility). promotions: the business's Promotion
-- list (contracts/src/promotions.ts); empty until one is saved, and on a facility's row always.
ALTER TABLE settings
  ADD COLUMN protection jsonb,
  ADD COLUMN promotions jsonb NOT NULL DEFAULT '[]';
