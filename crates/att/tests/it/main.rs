mod placeholder;
