// Made-up people and streets for the demo dataset. Email domains are reserved for examples
// (RFC 2606) and phone numbers sit in the fictional 555-0100 to 555-0199 range.

export const FIRST_NAMES = [
  'Aaliyah', 'Aaron', 'Abigail', 'Adrian', 'Aisha', 'Alejandro', 'Amelia', 'Andre', 'Anna', 'Arjun',
  'Ava', 'Benjamin', 'Bianca', 'Brandon', 'Camila', 'Carlos', 'Chen', 'Chloe', 'Daniel', 'Deepa',
  'Diego', 'Elena', 'Elijah', 'Emily', 'Ethan', 'Fatima', 'Gabriel', 'Grace', 'Hannah', 'Hiroshi',
  'Isabella', 'Isaac', 'Jamal', 'Jasmine', 'Javier', 'Jessica', 'Jordan', 'Julia', 'Kai', 'Keisha',
  'Kevin', 'Laura', 'Liam', 'Lucas', 'Madison', 'Malik', 'Marcus', 'Maya', 'Mei', 'Michael',
  'Mohammed', 'Natalie', 'Nathan', 'Nina', 'Noah', 'Olivia', 'Omar', 'Priya', 'Rachel', 'Rafael',
  'Rebecca', 'Ryan', 'Samantha', 'Samuel', 'Sofia', 'Sophie', 'Tariq', 'Thomas', 'Tyler', 'Valentina',
  'Victor', 'Wei', 'William', 'Yara', 'Yusuf', 'Zoe',
];

export const LAST_NAMES = [
  'Adams', 'Ahmed', 'Alvarez', 'Anderson', 'Baker', 'Bennett', 'Brooks', 'Campbell', 'Castillo', 'Chang',
  'Chavez', 'Clark', 'Collins', 'Cooper', 'Davis', 'Diaz', 'Edwards', 'Evans', 'Fischer', 'Flores',
  'Foster', 'Garcia', 'Gomez', 'Green', 'Gupta', 'Hall', 'Harris', 'Hayes', 'Hernandez', 'Hughes',
  'Ibrahim', 'Jackson', 'Jenkins', 'Johnson', 'Kaur', 'Kelly', 'Kim', 'Kowalski', 'Lee', 'Lewis',
  'Lopez', 'Martin', 'Martinez', 'Mendoza', 'Miller', 'Mitchell', 'Morales', 'Murphy', 'Nakamura', 'Nguyen',
  "O'Brien", 'Okafor', 'Ortiz', 'Parker', 'Patel', 'Perez', 'Phillips', 'Ramirez', 'Reed', 'Reyes',
  'Rivera', 'Roberts', 'Robinson', 'Rodriguez', 'Russo', 'Sanchez', 'Schmidt', 'Scott', 'Shah', 'Singh',
  'Stewart', 'Sullivan', 'Tanaka', 'Thompson', 'Torres', 'Turner', 'Walker', 'Ward', 'Watson', 'Williams',
  'Wilson', 'Wright', 'Yamamoto', 'Young', 'Zhang',
];

export const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

export const STREETS = [
  'Maple Ave', 'Oak St', 'Cedar Ln', 'Pine St', 'Elm St', 'Birch Rd', 'Willow Way', 'Spruce Ct',
  'Lakeview Dr', 'Hillcrest Rd', 'Sunset Blvd', 'Park Ave', 'Meadow Ln', 'Chestnut St', 'Highland Ave',
  'Riverside Dr', 'Orchard Rd', 'Forest Ave', 'Main St', 'Washington St', 'Jefferson Ave', 'Lincoln Rd',
  'Garden Ct', 'Valley View Rd', 'Harbor St', 'Summit Ave', 'Bayview Dr', 'Mill Rd', 'Church St', 'Walnut St',
];
