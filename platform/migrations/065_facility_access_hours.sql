-- When renters may reach their units: { "opensAt": "06:00", "closesAt": "22:00" } every day, or
-- null for 24-hour access (what every facility recorded before had).
ALTER TABLE facilities ADD COLUMN access_hours jsonb;
